//! One heap block, allocated once, that holds the flow array of whichever controller is
//! being measured (one at a time: at 10^7 flows the arrays of all controllers together
//! would not fit in memory).

use std::alloc::{Layout, alloc, dealloc};

/// A page-aligned block of `bytes`.
pub struct Arena {
    ptr: *mut u8,
    layout: Layout,
}

/// `MemAvailable` from `/proc/meminfo`, bytes (None where there is none).
pub fn mem_available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

impl Arena {
    /// A block of `bytes`, aligned to 2 MiB; with `huge`, the kernel is asked
    /// (`madvise(MADV_HUGEPAGE)`) to back it with transparent huge pages. Every page
    /// is touched once here, so no page fault is left for a timed run.
    pub fn new(bytes: usize, huge: bool) -> Arena {
        const ALIGN: usize = 2 << 20;
        let bytes = bytes.max(64).next_multiple_of(ALIGN);
        let layout = Layout::from_size_align(bytes, ALIGN).expect("arena layout");
        // SAFETY: non-zero size.
        let ptr = unsafe { alloc(layout) };
        assert!(!ptr.is_null(), "cannot allocate {bytes} bytes");
        #[cfg(target_os = "linux")]
        if huge {
            unsafe extern "C" {
                fn madvise(addr: *mut core::ffi::c_void, len: usize, advice: i32) -> i32;
            }
            const MADV_HUGEPAGE: i32 = 14;
            // SAFETY: the range is this allocation; madvise only changes how it is backed.
            let rc = unsafe { madvise(ptr.cast(), bytes, MADV_HUGEPAGE) };
            if rc != 0 {
                eprintln!("madvise(MADV_HUGEPAGE) failed; running on small pages");
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = huge;
        let mut off = 0;
        while off < bytes {
            // SAFETY: inside the allocation.
            unsafe { ptr.add(off).write_volatile(0) };
            off += 4096;
        }
        Arena { ptr, layout }
    }

    /// Bytes.
    pub fn len(&self) -> usize {
        self.layout.size()
    }

    /// Never empty.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `n` flows, flow `i` a clone of `templates[i % templates.len()]`, laid out as a
    /// plain `[T]` from the block's start; dropped (in place) with the returned guard.
    ///
    /// With `COLD_ARENA_SKEW=k` in the environment the array starts `k` bytes (rounded
    /// up to `T`'s alignment) after the block's start, as a `Vec<T>` from `malloc`
    /// would (glibc's large blocks start 16 bytes into a page).
    pub fn fill<T: Clone>(&mut self, n: usize, templates: &[T]) -> Flows<'_, T> {
        assert!(align_of::<T>() <= 4096);
        let skew = std::env::var("COLD_ARENA_SKEW")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
            .next_multiple_of(align_of::<T>());
        assert!(
            n.checked_mul(size_of::<T>())
                .and_then(|b| b.checked_add(skew))
                .is_some_and(|b| b <= self.len()),
            "arena too small"
        );
        // SAFETY: inside the block (checked above).
        let base = unsafe { self.ptr.add(skew) }.cast::<T>();
        for i in 0..n {
            // SAFETY: in bounds (checked above), aligned (the block is page-aligned, the
            // skew and `size_of` multiples of `align_of`), each slot written once.
            unsafe { base.add(i).write(templates[i % templates.len()].clone()) };
        }
        Flows {
            // SAFETY: the `n` slots were just initialised.
            flows: unsafe { std::slice::from_raw_parts_mut(base, n) },
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout.
        unsafe { dealloc(self.ptr, self.layout) };
    }
}

/// A flow array in an [`Arena`]; its flows are dropped with it.
pub struct Flows<'a, T> {
    /// The flows.
    pub flows: &'a mut [T],
}

impl<T> Drop for Flows<'_, T> {
    fn drop(&mut self) {
        // SAFETY: every element was initialised by `fill` and is dropped once.
        unsafe { std::ptr::drop_in_place(self.flows as *mut [T]) };
    }
}
