-- Who played each game and how it ended, for players' histories and statistics: the
-- identities holding Black and White (NULL for the computer, and for games from before
-- seats had owners), the opponent kind ('local', 'computer:level5', ...), the winner
-- ('black', 'white', 'draw'; NULL while playing), the reason and the number of stones.
ALTER TABLE games ADD COLUMN black_owner TEXT;
ALTER TABLE games ADD COLUMN white_owner TEXT;
ALTER TABLE games ADD COLUMN opponent TEXT NOT NULL DEFAULT 'local';
ALTER TABLE games ADD COLUMN winner TEXT;
ALTER TABLE games ADD COLUMN end_reason TEXT;
ALTER TABLE games ADD COLUMN ply INTEGER NOT NULL DEFAULT 0;

CREATE INDEX games_black_owner ON games (black_owner, updated_at);
CREATE INDEX games_white_owner ON games (white_owner, updated_at);

-- Games stored before this migration: their stone count, from their JSON.
UPDATE games SET ply = json_array_length(state, '$.moves');
