import { join } from 'node:path';
import { LocalFileStore, type FileStore } from './file-store.js';
import { S3FileStore, type S3Config } from './s3-file-store.js';

/**
 * The file store of a process: the S3-compatible object store when RECOGNITION_S3_BUCKET is set (API and worker
 * processes on different machines then share no folder), else `<dataDir>/recognition/files` on local disk.
 */
export function createFileStore(dataDir: string, s3?: S3Config): FileStore {
  return s3 ? new S3FileStore(s3) : new LocalFileStore(join(dataDir, 'recognition', 'files'));
}
