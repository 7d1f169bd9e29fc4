-- Each game's revision: how many times it was written after its creation. A write names
-- the revision it builds on and changes nothing if the row has moved on (another node
-- wrote it meanwhile): no lost update, no double move, whichever node acts.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
