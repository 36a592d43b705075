//! Rebuild the binary whenever the built site changes, since it is embedded, and wait for it while
//! `make run`'s first build makes it beside the dependencies; link the system's
//! libwebp, found by pkg-config (the uploads' WebP encoder, `media::webp`); and, on Linux with
//! glibc, pack the binary's relative relocations (`-z pack-relative-relocs`, DT_RELR): a
//! position-independent executable lists one relocation per pointer in its read-only data, 2.5 MB
//! of ours, which the packed form holds in a few kilobytes (glibc 2.36 and binutils 2.38 on).
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=../web/dist");
    // Not a `rerun-if-env-changed`: the next build, without it, has nothing to wait for.
    if let Some(status) = std::env::var_os("PORTFOLIO_SITE_STATUS") {
        wait_for_site(std::path::Path::new(&status));
    }
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
