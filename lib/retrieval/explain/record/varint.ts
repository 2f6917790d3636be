/**
 * Whole numbers as LEB128 varints (7 bits a byte, low first; a high bit says another byte
 * follows), base64url-encoded: the packed record's byte stream (packed.ts, `ranked`).
 * A number under 128 takes one byte, under 16,384 two.
 */

/** Appends varints to a buffer that grows as needed; reused across calls (`reset`). */
export class VarintWriter {
  private bytes = new Uint8Array(256);
  private length = 0;

  reset(): void {
    this.length = 0;
  }

  /** Makes room for `count` more numbers. */
  reserve(count: number): void {
    const needed = this.length + count * 8;
    if (needed <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(needed, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends `n`, a whole number from 0 to 2^53 − 1 (room made by `reserve`). */
  write(n: number): void {
    const { bytes } = this;
    if (n < 0x80000000) {
      while (n >= 0x80) {
        bytes[this.length++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
    } else {
      while (n >= 0x80) {
        bytes[this.length++] = (n % 0x80) | 0x80;
        n = Math.floor(n / 0x80);
      }
    }
    bytes[this.length++] = n;
  }

  /** What was written, base64url (no padding). */
  toBase64url(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length).toString('base64url');
  }
}

/** Reads back `VarintWriter.toBase64url`'s text; throws on a truncated number. */
export class VarintReader {
  private readonly bytes: Uint8Array;
  private at = 0;

  constructor(base64url: string) {
    this.bytes = Buffer.from(base64url, 'base64url');
  }

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  read(): number {
    let n = 0;
    for (let scale = 1; ; scale *= 0x80) {
      if (this.at >= this.bytes.length) throw new Error('a packed number is cut short');
      const byte = this.bytes[this.at++]!;
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
    }
  }
}
