/** Split text into 2–8 code-point pieces, deterministically (a fixed LCG), like real agents stream. */
export function chunkText(text: string, seed = 7): string[] {
  const cps = Array.from(text);
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < cps.length;) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const n = 2 + (s % 7);
    out.push(cps.slice(i, i + n).join(''));
    i += n;
  }
  return out;
}
