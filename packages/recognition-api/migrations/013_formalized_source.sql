-- Where a document came from (issue 24; docs/formalized-upload.md): an upload (page images or one formalized XML
-- file) or an e-document operator entity imported through the gateway.
ALTER TABLE documents ADD COLUMN source_kind text NOT NULL DEFAULT 'upload' CHECK (source_kind IN ('upload', 'edo'));
-- 'pages': images or a PDF, recognised by the engine; 'formalized_xml': an FNS XML file read exactly.
ALTER TABLE documents ADD COLUMN source_content text NOT NULL DEFAULT 'pages' CHECK (source_content IN ('pages', 'formalized_xml'));
ALTER TABLE documents ADD COLUMN edo_box_id text;
ALTER TABLE documents ADD COLUMN edo_message_id text;
ALTER TABLE documents ADD COLUMN edo_entity_id text;
ALTER TABLE documents ADD CONSTRAINT documents_edo_source CHECK (
  (source_kind = 'edo') = (edo_box_id IS NOT NULL AND edo_message_id IS NOT NULL AND edo_entity_id IS NOT NULL)
);
-- One document per key and operator entity: a repeated or concurrent import finds the first one.
CREATE UNIQUE INDEX documents_edo_entity ON documents (api_key_id, edo_box_id, edo_message_id, edo_entity_id) WHERE source_kind = 'edo';
