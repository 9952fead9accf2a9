-- A small store.
CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT, artist_id INTEGER REFERENCES artist (id));
CREATE INDEX album_artist ON album (artist_id);
INSERT INTO artist (id, name) VALUES (1, 'AC/DC'), (2, 'Accept');
INSERT INTO album (id, title, artist_id) VALUES (1, 'For Those About To Rock', 1);
CREATE VIEW catalog AS SELECT a.title, ar.name FROM album AS a JOIN artist AS ar ON ar.id = a.artist_id;
WITH recent AS (SELECT id FROM album WHERE id > 0) SELECT count(*) FROM recent;
SELECT title FROM catalog WHERE name IN ((SELECT name FROM artist)) ORDER BY title;
