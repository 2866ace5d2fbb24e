/* The kernel idioms every harness shim needs, the same for each kernel file built
 * (tcp_cubic.c, tcp_bbr.c v1 and v3, tcp_dctcp.c): annotations that compile to
 * nothing, the sequence and min/max helpers, and module / BTF registration, which
 * the harness replaces by a call to kernel_module_init(). Each shim includes this
 * and adds what its file needs besides; each declares warn_slowpath(). */
#ifndef KERNEL_IDIOMS_H
#define KERNEL_IDIOMS_H

#define __read_mostly
#define __init
#define __exit
#define __bpf_kfunc
#define THIS_MODULE NULL
#define READ_ONCE(x) (x)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define WARN_ON_ONCE(c) ({ int __c = !!(c); if (unlikely(__c)) warn_slowpath(__FILE__, __LINE__); unlikely(__c); })
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define after(a, b) ((s32)((b) - (a)) < 0)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define module_param(name, type, perm)
#define MODULE_PARM_DESC(name, desc)
#define MODULE_AUTHOR(x)
#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_VERSION(x)
#define EXPORT_SYMBOL_GPL(x)
#define module_init(fn) int kernel_module_init(void) { return fn(); }
#define module_exit(fn) void kernel_module_exit(void) { fn(); }
/* The kfunc set: BTF_KFUNCS_* since Linux 6.8, BTF_SET8_* before. */
#define BTF_SET8_START(name) static int name;
#define BTF_SET8_END(name)
#define BTF_KFUNCS_START(name) static int name;
#define BTF_KFUNCS_END(name)
#define BTF_ID_FLAGS(kind, name)
struct btf_kfunc_id_set {
	void *owner;
	int *set;
};
#define BPF_PROG_TYPE_STRUCT_OPS 0
#define register_btf_kfunc_id_set(type, set) ((void)(set), 0)

#endif
