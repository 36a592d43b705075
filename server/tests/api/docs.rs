//! The documentation against the code: docs/configuration.md lists every setting of `serve`.

use std::collections::BTreeSet;

use clap::{Args, Command};
use portfolio::config::Settings;

/// Variables read outside clap, so no flag defines them: the owner's password (kept off the
/// command line, where `ps` would show it) and the log filter.
const VARIABLES_WITHOUT_A_FLAG: [&str; 2] = ["PORTFOLIO_OWNER_PASSWORD", "RUST_LOG"];

/// One setting as `portfolio serve` defines it.
struct Setting {
    flag: String,
    variable: Option<String>,
    hidden: bool,
}

/// The arguments of `portfolio serve`, exactly as `cli::main` builds its subcommand from `Settings`.
fn serve_settings() -> Vec<Setting> {
    let command = Settings::augment_args(Command::new("serve"));
    command
        .get_arguments()
        .filter_map(|arg| {
            Some(Setting {
                flag: format!("--{}", arg.get_long()?),
                variable: arg.get_env().map(|env| env.to_string_lossy().into_owned()),
                hidden: arg.is_hide_set(),
            })
        })
        .collect()
}

/// One row of the table: the flags and the variables it names.
struct Row {
    line: usize,
    flags: Vec<String>,
    variables: Vec<String>,
}

/// The code spans of a cell, e.g. "`--contact-per-minute`, `--contact-per-hour`".
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The rows of the table headed `| Setting | Flag | Environment variable | Default |`.
fn documented_rows(markdown: &str) -> Vec<Row> {
    let mut lines = markdown.lines().enumerate();
    lines
        .by_ref()
        .find(|(_, line)| line.starts_with("| Setting | Flag | Environment variable | Default |"))
        .expect("docs/configuration.md has the settings table");
    lines
        .skip(1) // |---|---|
        .take_while(|(_, line)| line.starts_with('|'))
        .map(|(index, line)| {
            // A `\|` inside a cell is text, not a column.
            let cells: Vec<String> = line
                .replace("\\|", "\u{0}")
                .split('|')
                .map(|cell| cell.replace('\u{0}', "|"))
                .collect();
            assert_eq!(
                cells.len(),
                6,
                "docs/configuration.md line {}: four columns expected: {line}",
                index + 1
            );
            Row {
                line: index + 1,
                flags: code_spans(&cells[2]),
                variables: code_spans(&cells[3]),
            }
        })
        .collect()
}

fn configuration_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/configuration.md");
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {path}: {error}"))
}

/// Every visible setting has a row naming its flag and, in the same row, its variable; every
/// flag and variable in the table is one that `serve` defines. Hidden settings (for tests) may
/// be listed but need not be.
fn check(markdown: &str) -> Vec<String> {
    let settings = serve_settings();
    let rows = documented_rows(markdown);
    let mut problems = Vec::new();

    for setting in settings.iter().filter(|setting| !setting.hidden) {
        match rows.iter().find(|row| row.flags.contains(&setting.flag)) {
            None => problems.push(format!(
                "{} ({}) has no row",
                setting.flag,
                setting.variable.as_deref().unwrap_or("no variable")
            )),
            Some(row) => {
                if let Some(variable) = &setting.variable {
                    if !row.variables.contains(variable) {
                        problems.push(format!(
                            "line {}: the row of {} does not name {variable}",
                            row.line, setting.flag
                        ));
                    }
                }
            }
        }
    }

    let flags: BTreeSet<&str> = settings.iter().map(|s| s.flag.as_str()).collect();
    let variables: BTreeSet<&str> = settings
        .iter()
        .filter_map(|s| s.variable.as_deref())
        .chain(VARIABLES_WITHOUT_A_FLAG)
        .collect();
    for row in &rows {
        for flag in &row.flags {
            if !flags.contains(flag.as_str()) {
                problems.push(format!(
                    "line {}: {flag} is not a flag of `portfolio serve`",
                    row.line
                ));
            }
        }
        for variable in &row.variables {
            if !variables.contains(variable.as_str()) {
                problems.push(format!(
                    "line {}: {variable} is read by no setting of `portfolio serve`",
                    row.line
                ));
            }
        }
    }
    problems
}

#[test]
fn the_configuration_page_lists_every_setting_of_serve_and_nothing_else() {
    let problems = check(&configuration_md());
    assert!(
        problems.is_empty(),
        "docs/configuration.md and the settings of `portfolio serve` differ:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn the_configuration_check_notices_a_missing_row_a_wrong_variable_and_an_unknown_flag() {
    let markdown = configuration_md();
    // Enough settings to be sure the walk over clap's definitions found them all.
    assert!(serve_settings().iter().filter(|s| !s.hidden).count() >= 40);

    let without_listen: String = markdown
        .lines()
        .filter(|line| !line.contains("`--listen`"))
        .map(|line| format!("{line}\n"))
        .collect();
    let problems = check(&without_listen);
    assert!(
        problems.iter().any(|p| p.starts_with("--listen ")),
        "a removed row goes unnoticed: {problems:?}"
    );

    let wrong_variable = markdown.replace("`PORTFOLIO_BACKUP_KEEP`", "`PORTFOLIO_BACKUPS_KEPT`");
    let problems = check(&wrong_variable);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("--backup-keep does not name PORTFOLIO_BACKUP_KEEP")),
        "a wrong variable goes unnoticed: {problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("PORTFOLIO_BACKUPS_KEPT is read by no setting")),
        "an unknown variable goes unnoticed: {problems:?}"
    );

    let unknown_flag = markdown.replace("`--backup-every`", "`--backup-every`, `--backup-often`");
    let problems = check(&unknown_flag);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("--backup-often is not a flag of `portfolio serve`")),
        "an unknown flag goes unnoticed: {problems:?}"
    );
}
