-- The trigram index on speaker names: name search reads "Meeting".users, never this, and every line paid for it.
-- DropIndex
DROP INDEX "Message_user_idx";

-- The line trigger's configuration lookup, in plpgsql: PostgreSQL plans a LANGUAGE sql function called
-- from plpgsql again on every call (about a third of a one-line ingest's time), plpgsql keeps its plan.
-- The body is an E'' string with \x3B for its semicolons (see ..._search_vector_triggers).
CREATE OR REPLACE FUNCTION meeting_search_config(meeting_id TEXT) RETURNS regconfig LANGUAGE plpgsql STABLE AS E'
BEGIN
  RETURN COALESCE((SELECT c.oid::regconfig FROM "Meeting" m JOIN pg_ts_config c ON c.cfgname = m."searchConfig"
                   WHERE m.id = meeting_id), ''simple''::regconfig)\x3B
END';
