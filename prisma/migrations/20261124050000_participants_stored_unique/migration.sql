-- Meeting reads pass participants on as stored. Every write stores them trimmed (as JavaScript's
-- String.prototype.trim trims: the characters below) and once each, in the order first seen
-- (uniqueParticipants). Rows written by older versions are brought to that form here.
UPDATE "Meeting" AS m SET users = n.users
FROM (
  SELECT id, ARRAY(
    SELECT name FROM (
      SELECT btrim(u, U&'\0009\000a\000b\000c\000d\0020\00a0\1680\2000\2001\2002\2003\2004\2005\2006\2007\2008\2009\200a\2028\2029\202f\205f\3000\feff') AS name,
             min(o) AS first
      FROM unnest(users) WITH ORDINALITY AS x(u, o) GROUP BY 1
    ) AS d WHERE name <> '' ORDER BY first
  ) AS users
  FROM "Meeting"
) AS n
WHERE m.id = n.id AND m.users IS DISTINCT FROM n.users;
