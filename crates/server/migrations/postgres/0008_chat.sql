-- PostgreSQL: see ../0008_chat.sql.
CREATE TABLE chat_messages (
    id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game   TEXT NOT NULL REFERENCES games (id),
    room   TEXT NOT NULL,
    author TEXT NOT NULL REFERENCES identities (id),
    text   TEXT NOT NULL,
    at     BIGINT NOT NULL
);

CREATE INDEX chat_messages_game ON chat_messages (game, room, id);
