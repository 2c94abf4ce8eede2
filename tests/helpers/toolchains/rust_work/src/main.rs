use std::collections::HashMap;

#[inline(never)]
fn map_phase(n: u64) -> HashMap<u64, u64> {
    let mut m = HashMap::new();
    let mut x: u64 = 0x9e3779b97f4a7c15;
    for i in 0..n {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        *m.entry(x % (n / 4 + 1)).or_insert(0) += i;
    }
    m
}

#[inline(never)]
fn sort_phase(m: &HashMap<u64, u64>) -> Vec<u64> {
    let mut v: Vec<u64> = m.values().copied().collect();
    for _ in 0..8 {
        v.sort_unstable();
        v.reverse();
        v.sort();
    }
    v
}

#[inline(never)]
fn iter_phase(v: &[u64]) -> u64 {
    let mut t = 0u64;
    for r in 0..40u64 {
        t = t.wrapping_add(v.iter().enumerate()
            .filter(|(i, _)| (*i as u64 + r) % 3 != 0)
            .map(|(_, &x)| x.wrapping_mul(2654435761).rotate_left((r % 63) as u32))
            .fold(0u64, |a, b| a ^ b));
    }
    t
}

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2_000_000);
    let m = map_phase(n);
    let v = sort_phase(&m);
    let t = iter_phase(&v);
    println!("{} {} {}", m.len(), v.len(), t);
}
