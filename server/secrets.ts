/**
 * The room's secrets: room ids, presenter keys and seat tokens are 128 random bits each
 * (crypto.randomBytes(16), base64url: 22 characters, the protocol's SecretSchema). The store keeps
 * only a SHA-256 of a key or token, so a copy of the data directory lets no one present a room or
 * take a seat; a secret a client sends is hashed and compared in constant time (timingSafeEqual).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSecret(): string {
  return randomBytes(16).toString('base64url');
}

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` is the one whose hash is `hash`, in time that does not depend on where they differ. */
export function matchesHash(secret: string, hash: string): boolean {
  const given = createHash('sha256').update(secret, 'utf8').digest();
  const stored = Buffer.from(hash, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored);
}
