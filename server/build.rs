//! Embed the built site (`web/dist/`) and the migrations: a table of each folder's files, by name,
//! written to `$OUT_DIR/embedded.rs` for `crate::embedded` (rebuilt whenever they change), after
//! waiting for the site while `make run`'s first build makes it beside the dependencies; link the
//! system's
//! libwebp, found by pkg-config (the uploads' WebP encoder, `media::webp`); and, on Linux with
//! glibc, pack the binary's relative relocations (`-z pack-relative-relocs`, DT_RELR): a
//! position-independent executable lists one relocation per pointer in its read-only data, 2.5 MB
//! of ours, which the packed form holds in a few kilobytes (glibc 2.36 and binutils 2.38 on).
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=../web/dist");
    println!("cargo:rerun-if-changed=migrations");
    // Not a `rerun-if-env-changed`: the next build, without it, has nothing to wait for.
    if let Some(status) = std::env::var_os("PORTFOLIO_SITE_STATUS") {
        wait_for_site(std::path::Path::new(&status));
    }
    embed();
    println!("cargo:rerun-if-env-changed=PORTFOLIO_NO_RELR");
    // `WebPFree` is libwebp 1.0's; Debian 12 has 1.2.4.
    if let Err(error) = pkg_config::Config::new()
        .atleast_version("1.0")
        .probe("libwebp")
    {
        panic!("libwebp 1.0 or later is needed to encode uploads as WebP (Debian: apt-get install libwebp-dev pkg-config; `make` does): {error}");
    }
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    if linux_gnu && std::env::var_os("PORTFOLIO_NO_RELR").is_none() && linker_packs_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Writes `embedded.rs`: one static table per folder, its files' names (relative, with `/`) in
/// order, each with its bytes by `include_bytes!`. What rust-embed's derive did for us, without
/// its crates (sha2 0.11, globset and their kin, twice: for the build host and the binary): the
/// server hashes what it needs at start-up (`site::asset`).
fn embed() {
    use std::path::{Path, PathBuf};
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dist = manifest.join("../web/dist");
    if !dist.join("index.html").exists() {
        panic!(
            "the site is not built ({} has no index.html): run `make web` (or `cd web && npm ci && npm run build`) first",
            dist.display()
        );
    }
    fn files(root: &Path, dir: &Path, skip: &[&str], out: &mut Vec<(String, PathBuf)>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|error| panic!("reading {}: {error}", dir.display()));
        for entry in entries {
            let path = entry.expect("a folder's entry").path();
            let name = path
                .strip_prefix(root)
                .expect("under its root")
                .to_str()
                .unwrap_or_else(|| panic!("{} is not UTF-8", path.display()))
                .replace('\\', "/");
            if skip.iter().any(|skipped| name == *skipped) {
                continue;
            }
            if path.is_dir() {
                files(root, &path, skip, out);
            } else {
                out.push((name, path));
            }
        }
    }
    let table = |name: &str, root: &Path, skip: &[&str], keep: &dyn Fn(&str) -> bool| {
        let mut found = Vec::new();
        files(root, root, skip, &mut found);
        found.retain(|(name, _)| keep(name));
        found.sort();
        let mut text = format!("pub static {name}: Folder = Folder(&[\n");
        for (name, path) in found {
            let path = path.canonicalize().expect("an embedded file's path");
            text += &format!(
                "    ({name:?}, include_bytes!({:?})),\n",
                path.to_str().expect("UTF-8")
            );
        }
        text + "]);\n"
    };
    let sql = |name: &str| name.ends_with(".sql");
    let everything = |_: &str| true;
    let out = [
        table("SITE", &dist, &[".vite", ".render"], &everything),
        table("RENDER", &dist.join(".render"), &[], &everything),
        table(
            "SQLITE_MIGRATIONS",
            &manifest.join("migrations/sqlite"),
            &[],
            &sql,
        ),
        table(
            "POSTGRES_MIGRATIONS",
            &manifest.join("migrations/postgres"),
            &[],
            &sql,
        ),
    ]
    .concat();
    let target =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("embedded.rs");
    if std::fs::read_to_string(&target).ok().as_deref() != Some(out.as_str()) {
        std::fs::write(&target, out).expect("writing embedded.rs");
    }
}

/// Returns once the site's build has written its exit status 0 to `status`; fails the build with
/// any other status (the site's own output says why).
fn wait_for_site(status: &std::path::Path) {
    let started = std::time::Instant::now();
    loop {
        match std::fs::read_to_string(status).map(|text| text.trim().to_owned()) {
            Ok(text) if text == "0" => return,
            Ok(text) if !text.is_empty() => {
                panic!("the site's build failed (exit status {text}): its output says why")
            }
            _ if started.elapsed() > std::time::Duration::from_secs(1800) => {
                panic!(
                    "the site's build wrote no status to {} in 30 minutes",
                    status.display()
                )
            }
            _ => std::thread::sleep(std::time::Duration::from_millis(200)),
        }
    }
}

/// Whether the system's C toolchain links with `-z pack-relative-relocs` (older ones refuse it)
/// and the program it makes runs (a glibc before 2.36 cannot load it). Never when
/// cross-compiling: the probe could not run.
fn linker_packs_relocations() -> bool {
    if std::env::var("HOST") != std::env::var("TARGET") {
        return false;
    }
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let source = out.join("relr-probe.c");
    if std::fs::write(&source, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    let probe = out.join("relr-probe");
    let linked = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg(&source)
        .arg("-o")
        .arg(&probe)
        .arg("-Wl,-z,pack-relative-relocs")
        .output()
        .is_ok_and(|result| result.status.success());
    linked
        && Command::new(&probe)
            .status()
            .is_ok_and(|status| status.success())
}
