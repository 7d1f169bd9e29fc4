-- Chat in games between people: the players' room and the spectators' room, kept with
-- the game. The text is stored as typed and always shown as text.
CREATE TABLE chat_messages (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    game   TEXT NOT NULL REFERENCES games (id),
    room   TEXT NOT NULL,
    author TEXT NOT NULL REFERENCES identities (id),
    text   TEXT NOT NULL,
    at     INTEGER NOT NULL
);

CREATE INDEX chat_messages_game ON chat_messages (game, room, id);
