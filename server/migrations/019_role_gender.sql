-- A role's gender (issue 30): inferred from the story when the role is extracted, shown and
-- edited on the role card, and used to give each speaker a default voice of that gender.
-- Null: not known (the text does not say, or the person chose 未知).
ALTER TABLE roles ADD COLUMN gender text CHECK (gender IN ('female', 'male'));
