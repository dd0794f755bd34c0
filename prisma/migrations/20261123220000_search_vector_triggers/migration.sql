-- The triggers that keep "Message"."searchVector" and "Summary"."searchVector" up to date (the columns
-- and indexes come from ..._search_and_share). Prisma's pg adapter runs a migration by splitting it at
-- every semicolon, so no statement here may contain one: the plpgsql bodies are E'' strings that write
-- each of theirs as \x3B.

-- The meeting's text-search configuration, or 'simple' for a name PostgreSQL does not know.
CREATE OR REPLACE FUNCTION meeting_search_config(meeting_id TEXT) RETURNS regconfig LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT c.oid::regconfig FROM "Meeting" m JOIN pg_ts_config c ON c.cfgname = m."searchConfig"
                   WHERE m.id = meeting_id), 'simple'::regconfig)
$$;

-- A line: its text (weight A), cleanup (B) and comment (C). Nothing of an encrypted line.
CREATE OR REPLACE FUNCTION message_search_vector() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE cfg regconfig\x3B
BEGIN
  IF NEW.encrypted THEN
    NEW."searchVector" := NULL\x3B
  ELSE
    cfg := meeting_search_config(NEW."meetingId")\x3B
    NEW."searchVector" := setweight(to_tsvector(cfg, NEW.text), ''A'')
      || setweight(to_tsvector(cfg, COALESCE(NEW."aiFixed", '''')), ''B'')
      || setweight(to_tsvector(cfg, NEW.comment), ''C'')\x3B
  END IF\x3B
  RETURN NEW\x3B
END';

DROP TRIGGER IF EXISTS message_search_vector ON "Message";
CREATE TRIGGER message_search_vector BEFORE INSERT OR UPDATE OF text, "aiFixed", comment, encrypted ON "Message"
  FOR EACH ROW EXECUTE FUNCTION message_search_vector();

-- A summary: its title (A) and its text without HTML tags (B). Nothing of an encrypted summary.
CREATE OR REPLACE FUNCTION summary_search_vector() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE cfg regconfig\x3B
BEGIN
  IF NEW.encrypted THEN
    NEW."searchVector" := NULL\x3B
  ELSE
    cfg := meeting_search_config(NEW."meetingId")\x3B
    NEW."searchVector" := setweight(to_tsvector(cfg, NEW.title), ''A'')
      || setweight(to_tsvector(cfg, regexp_replace(NEW.text, ''<[^>]*>'', '' '', ''g'')), ''B'')\x3B
  END IF\x3B
  RETURN NEW\x3B
END';

DROP TRIGGER IF EXISTS summary_search_vector ON "Summary";
CREATE TRIGGER summary_search_vector BEFORE INSERT OR UPDATE OF title, text, encrypted ON "Summary"
  FOR EACH ROW EXECUTE FUNCTION summary_search_vector();

-- Rows stored before the triggers existed.
UPDATE "Message" SET text = text WHERE "searchVector" IS NULL AND NOT encrypted;
UPDATE "Summary" SET text = text WHERE "searchVector" IS NULL AND NOT encrypted;
