//! Hands the linker the memory map of the QEMU board the target runs on.
fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").expect("cargo sets the target arch");
    let script = match arch.as_str() {
        // mps2-an386: code in the 4 MiB SSRAM at 0, data in the 4 MiB at 0x2000_0000.
        "arm" => "mps2-an386.x",
        // virt: -bios none starts the image at the base of DRAM, 0x8000_0000.
        "riscv32" => "riscv-virt.x",
        other => panic!("no QEMU board for target arch {other}"),
    };
    println!("cargo:rustc-link-search={dir}");
    println!("cargo:rustc-link-arg-bins=-T{script}");
    println!("cargo:rerun-if-changed=mps2-an386.x");
    println!("cargo:rerun-if-changed=riscv-virt.x");
}
