import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, SecretBoxError } from '../src/secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, with and without associated data', () => {
    expect(box.open(box.seal('s3cret'))).toBe('s3cret');
    expect(box.open(box.seal('s3cret', 'client_secret'), 'client_secret')).toBe('s3cret');
  });

  it('binds the context: a value sealed for one column does not open as another, nor without context', () => {
    const sealed = box.seal('s3cret', 'client_secret');
    expect(() => box.open(sealed, 'refresh_token')).toThrow(SecretBoxError);
    expect(() => box.open(sealed)).toThrow(SecretBoxError);
    expect(() => box.open(box.seal('s3cret'), 'client_secret')).toThrow(SecretBoxError);
  });

  it('refuses another key, an altered value and an unknown format', () => {
    const sealed = box.seal('s3cret');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(SecretBoxError);
    const [v, iv, tag, ct] = sealed.split('.');
    const flipped = `${ct![0] === 'A' ? 'B' : 'A'}${ct!.slice(1)}`;
    expect(() => box.open([v, iv, tag, flipped].join('.'))).toThrow(SecretBoxError);
    expect(() => box.open('v2.a.b.c')).toThrow(SecretBoxError);
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
