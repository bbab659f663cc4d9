-- The same file uploaded again by its owner is the same asset: 我的上传 listed one clip once per
-- upload (a drama scene, a reverse video's source, a background: each sent it again and got a
-- row and a file of its own). upload_media hashes what it stores and answers the owner's
-- existing upload of those bytes. Rows from before stay unhashed (null) and are never matched.
ALTER TABLE user_uploads ADD COLUMN content_sha256 text;
CREATE UNIQUE INDEX user_uploads_user_content_idx ON user_uploads (user_id, kind, content_sha256)
  WHERE content_sha256 IS NOT NULL;
