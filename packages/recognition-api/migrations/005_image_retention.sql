-- Image retention (issue 13): page images of finished documents are deleted after RECOGNITION_IMAGE_RETENTION_DAYS;
-- the document row keeps its data. files_purged_at records when, so each document is handled once.
ALTER TABLE documents ADD COLUMN files_purged_at timestamptz;
CREATE INDEX documents_files_to_purge ON documents (completed_at)
  WHERE files_purged_at IS NULL AND status IN ('completed', 'failed');
