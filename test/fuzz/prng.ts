/** A small seeded PRNG (mulberry32) so every fuzz run is reproducible from its seed. */

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: a stable 32-bit hash, used to derive one seed per operation from the run's seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private readonly next: () => number;
  constructor(readonly seed: number) { this.next = mulberry32(seed); }
  /** Derives an independent generator, e.g. one per operation. */
  static for(seed: number, label: string) { return new Rng((hash32(label) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0); }
  float() { return this.next(); }
  /** An integer in [min, max]. */
  int(min: number, max: number) { return min + Math.floor(this.next() * (max - min + 1)); }
  bool(probability = 0.5) { return this.next() < probability; }
  pick<T>(items: readonly T[]): T { return items[Math.floor(this.next() * items.length)]; }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
  /** A seed for a library that takes one (json-schema-faker). */
  seedFor() { return this.int(1, 0x7fffffff); }
  hex(length: number) { let s = ''; while (s.length < length) s += this.int(0, 15).toString(16); return s; }
  uuid() {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
