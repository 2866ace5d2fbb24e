/*
 * Reset code for the C programs under QEMU's mps2-an386 (Cortex-M4 with FPU): the
 * vector table, FPU enable, .bss zeroing, newlib's semihosting stdio (librdimon),
 * argc/argv from the semihosting command line, and the exit status back to QEMU.
 * Linked with -nostartfiles; the default arm-none-eabi linker script places the code
 * at 0x8000 in the board's 4 MiB SSRAM, the vector table is put at 0.
 */
#include <stdint.h>
#include <string.h>

extern int main(int argc, char **argv);
extern void initialise_monitor_handles(void);
extern char __bss_start__[], __bss_end__[];

void reset_handler(void);

/* Initial stack pointer (top of the 4 MiB SSRAM that holds the program), reset vector. */
/* Global, and named on the link line (-Wl,--undefined=vector_table) so --gc-sections keeps it. */
__attribute__((section(".vectors"), used)) const void *const vector_table[2] = {
    (void *)0x00400000,
    (void *)reset_handler,
};

/* One semihosting call: operation in r0, parameter block in r1, result in r0. */
static uintptr_t semihosting(uintptr_t op, const void *block) {
    register uintptr_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#define SYS_GET_CMDLINE 0x15
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define MAX_ARGS 8

static char cmdline[512];
static char *argv[MAX_ARGS + 1];

/* Splits the command line QEMU was given with `arg=` options at spaces. */
static int split_cmdline(void) {
    uintptr_t block[2] = {(uintptr_t)cmdline, sizeof cmdline - 1};
    if (semihosting(SYS_GET_CMDLINE, block) != 0) return 0;
    int argc = 0;
    for (char *p = cmdline; *p && argc < MAX_ARGS;) {
        while (*p == ' ') *p++ = 0;
        if (!*p) break;
        argv[argc++] = p;
        while (*p && *p != ' ') p++;
    }
    argv[argc] = 0;
    return argc;
}

/* Ends the emulation with `status` as QEMU's exit status. */
void _exit(int status) {
    uintptr_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status};
    for (;;) semihosting(SYS_EXIT_EXTENDED, block);
}

/* newlib's exit() runs the fini array through _fini; there is nothing to run. */
void _init(void) {}
void _fini(void) {}

void reset_handler(void) {
    /* CPACR: full access to coprocessors 10 and 11, the FPU (the hard-float ABI of
     * thumbv7em-none-eabihf and newlib may use its registers). */
    *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
    __asm__ volatile("dsb\n isb" ::: "memory");
    memset(__bss_start__, 0, (size_t)(__bss_end__ - __bss_start__));
    initialise_monitor_handles();
    int argc = split_cmdline();
    extern void exit(int);
    exit(main(argc, argv));
}
