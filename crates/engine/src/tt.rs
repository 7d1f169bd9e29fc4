//! The transposition table: shared by all search threads, sized from a memory limit.
//!
//! Each slot is two atomic words, `key ^ data` and `data`; a torn write from another
//! thread then fails the key check instead of returning garbage (the "XOR trick"), so
//! no locks are needed. Memory comes zeroed from the allocator, untouched; a clear
//! zeroes the table in place, which also brings every page into use, so the searches
//! after it take no page faults (see [`crate::Engine::clear`]).
//!
//! The table is on ordinary pages. Transparent huge pages (`madvise`) were tried and
//! dropped: a search on a warm table was no faster (`wuzi bench`, one thread: 1,341 k
//! nodes/s against 1,335 k, three runs each), and on this kind of virtual machine,
//! which hands freed memory back to its host, bringing a fresh 64 MiB table into use
//! after a few idle seconds took 140 to 152 ms on huge pages against 35 to 38 ms on
//! ordinary ones: enough, falling in a move, to stall it.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::search::ONE_PLY;

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The score is a lower bound (fail high).
    Lower,
    /// The score is an upper bound (fail low).
    Upper,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best move (padded-board index), or 0.
    pub mv: u16,
    /// Score (mate scores relative to the node).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Depth searched, in [`crate::search::ONE_PLY`] units (stored as 0 to 255).
    pub depth: i32,
    /// Kind of score.
    pub bound: Bound,
    /// Whether the node was a PV node when stored, or its entry said so then.
    pub pv: bool,
}

/// The shared table.
#[derive(Debug)]
pub struct Tt {
    slots: Box<[AtomicU64]>,
    mask: usize,
    generation: AtomicU64,
}

/// The largest table, MiB: front ends refuse larger sizes, and the engine takes no more.
pub const MAX_HASH_MB: usize = 65_536;

/// Bytes of one slot (two words).
const SLOT_BYTES: usize = 16;
/// The smallest table, slots.
const MIN_SLOTS: usize = 1024;

/// A zeroed table of `words` words, or `None` when the allocator refuses that much.
fn try_zeroed(words: usize) -> Option<Box<[AtomicU64]>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(words).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // Safety: the layout's size is not zero.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
    if ptr.is_null() {
        return None;
    }
    // Safety: `ptr` comes from the global allocator with the layout of `words` values of
    // `AtomicU64`, as a `Box<[AtomicU64]>` of that length expects; the memory is zeroed,
    // and all zero bits are a valid `AtomicU64` (the value 0).
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, words)) })
}

impl Tt {
    /// A table of about `mb` MiB (at most [`MAX_HASH_MB`]), rounded down to a power of
    /// two slots (at least 1024). When the system refuses that much memory the table
    /// takes the largest power of two it grants, so a size too large for the machine
    /// gives a smaller table instead of ending the program.
    #[must_use]
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.clamp(1, MAX_HASH_MB) << 20;
        let mut slots = MIN_SLOTS;
        while slots * 2 * SLOT_BYTES <= bytes {
            slots *= 2;
        }
        loop {
            if let Some(table) = try_zeroed(slots * 2) {
                return Tt {
                    slots: table,
                    mask: slots - 1,
                    generation: AtomicU64::new(0),
                };
            }
            if slots == MIN_SLOTS {
                // Not even the smallest table: out of memory, as any allocation.
                std::alloc::handle_alloc_error(
                    std::alloc::Layout::new::<[AtomicU64; MIN_SLOTS * 2]>(),
                );
            }
            slots /= 2;
        }
    }

    /// Forgets everything. The memory is zeroed where it is: every page is then in use,
    /// and the searches after the clear take no page faults on the table.
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s.get_mut() = 0;
        }
    }

    /// Number of entries the table holds.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.mask + 1
    }

    /// Starts a new search (older entries become easier to replace).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    /// Asks the processor to bring `key`'s slot into the cache: called when a move
    /// is made, so the slot arrives while the child node looks for fives and fours,
    /// before it probes the table. A hint only; it changes nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.slots[self.slot(key)]
                .as_ptr()
                .cast::<i8>()
                .cast_const();
            // Safety: a prefetch reads nothing and cannot fault; the address is that
            // of a slot of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let k = self.slots[s].load(Ordering::Relaxed);
        let d = self.slots[s + 1].load(Ordering::Relaxed);
        if d == 0 || k ^ d != key {
            return None;
        }
        Some(unpack(d))
    }

    /// Stores an entry (replacing shallower or older ones).
    pub fn store(&self, key: u64, e: Entry) {
        let s = self.slot(key);
        let old_k = self.slots[s].load(Ordering::Relaxed);
        let old_d = self.slots[s + 1].load(Ordering::Relaxed);
        let age = self.generation.load(Ordering::Relaxed) & 0x3f;
        if old_d != 0 && old_k ^ old_d != key {
            let old = unpack(old_d);
            let old_age = (old_d >> 58) & 0x3f;
            if old_age == age && old.depth > e.depth + 2 * ONE_PLY && e.bound != Bound::Exact {
                return;
            }
        }
        let mut e = e;
        if e.mv == 0 && old_d != 0 && old_k ^ old_d == key {
            e.mv = unpack(old_d).mv;
        }
        let d = pack(e, age);
        self.slots[s].store(key ^ d, Ordering::Relaxed);
        self.slots[s + 1].store(d, Ordering::Relaxed);
    }

    /// Permille of sampled slots used by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let age = self.generation.load(Ordering::Relaxed) & 0x3f;
        let n = 1000.min(self.mask + 1);
        (0..n)
            .filter(|&i| {
                let d = self.slots[i * 2 + 1].load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 0x3f == age
            })
            .count() as u32
    }
}

/// The bit of a packed entry's move field that holds [`Entry::pv`] (moves need 11 bits).
const PV_BIT: u16 = 0x8000;

fn pack(e: Entry, age: u64) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(e.mv & !PV_BIT | if e.pv { PV_BIT } else { 0 })
        | u64::from(e.score as i16 as u16) << 16
        | u64::from(e.eval.clamp(-32000, 32000) as i16 as u16) << 32
        | (e.depth.clamp(0, 255) as u64) << 48
        | bound << 56
        | age << 58
}

fn unpack(d: u64) -> Entry {
    Entry {
        mv: d as u16 & !PV_BIT,
        pv: d as u16 & PV_BIT != 0,
        score: i32::from((d >> 16) as u16 as i16),
        eval: i32::from((d >> 32) as u16 as i16),
        depth: ((d >> 48) & 0xff) as i32,
        bound: match (d >> 56) & 3 {
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stores one entry in `tt` and finds it again, and only under its key.
    fn check_store_and_probe(tt: &Tt) {
        let e = Entry {
            mv: 300,
            score: -29_990,
            eval: 17,
            depth: 9,
            bound: Bound::Lower,
            pv: true,
        };
        tt.store(0xdead_beef_1234_5678, e);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(e));
        assert_eq!(tt.probe(0xdead_beef_1234_5679), None);
    }

    #[test]
    fn store_and_probe() {
        check_store_and_probe(&Tt::new(1));
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_limits() {
        assert_eq!(Tt::new(0).capacity(), Tt::new(1).capacity());
        assert_eq!(Tt::new(1).capacity(), 1 << 16);
        assert_eq!(Tt::new(3).capacity(), 1 << 17, "3 MiB rounds down to 2");
        // Larger than the limit, and than this machine: a smaller table that works,
        // not a failed allocation ending the program.
        let tt = Tt::new(usize::MAX);
        assert!(tt.capacity().is_power_of_two());
        assert!(tt.capacity() * SLOT_BYTES <= MAX_HASH_MB << 20);
        check_store_and_probe(&tt);
    }

    #[test]
    fn clear_forgets_and_the_table_works_after() {
        let mut tt = Tt::new(1);
        let e = Entry {
            mv: 42,
            score: 120,
            eval: -5,
            depth: 4,
            bound: Bound::Exact,
            pv: false,
        };
        let keys: Vec<u64> = (1..=500u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &k in &keys {
            tt.store(k, e);
        }
        assert!(keys.iter().all(|&k| tt.probe(k) == Some(e)));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        assert!(tt.slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
        // Stored again after a clear, and cleared again.
        tt.store(keys[0], e);
        assert_eq!(tt.probe(keys[0]), Some(e));
        tt.clear();
        assert_eq!(tt.probe(keys[0]), None);
    }
}
