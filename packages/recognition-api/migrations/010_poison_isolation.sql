-- Issue 27, defect 3: a process killed by the OS (native memory in libvips, OpenCV or Tesseract) took every
-- document it held with it, and each was charged an attempt. `claimed_alone` says whether the holder was running
-- this document alone (an isolated re-run); `isolate` marks a document whose holder died while it shared the
-- process: it is charged nothing for that death and is re-run alone, so only a document proven guilty is charged.
ALTER TABLE documents ADD COLUMN claimed_alone boolean NOT NULL DEFAULT false;
ALTER TABLE documents ADD COLUMN isolate boolean NOT NULL DEFAULT false;
