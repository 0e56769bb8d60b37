import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Storage port for uploaded page images. Keys are relative paths chosen by the service
 * (`<documentId>/page-<n>.<ext>`), never by the caller. Another adapter (S3 etc.) can replace the local one.
 */
export interface FileStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Removes every file of a document; no error when there is none. */
  removeDocument(documentId: string): Promise<void>;
}

/** Files on local disk under `root` (default `<dataDir>/recognition/files`). */
export class LocalFileStore implements FileStore {
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Absolute path of a key; refuses keys that would escape the root (defence in depth). */
  pathOf(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`file key outside the store: ${key}`);
    return p;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const p = this.pathOf(key);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, bytes);
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async removeDocument(documentId: string): Promise<void> {
    await rm(this.pathOf(documentId), { recursive: true, force: true });
  }

  /** The folder of one document (tests check it is gone after DELETE). */
  documentDir(documentId: string): string {
    return join(this.root, documentId);
  }
}
