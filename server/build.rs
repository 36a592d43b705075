//! Rebuild the binary whenever the built site changes, since it is embedded.
fn main() {
    println!("cargo:rerun-if-changed=../web/dist");
}
