-- The messages a task passed through, in order (a JSON array of strings), so a screen that
-- polls once a second still shows each short phase it missed (issue 42: 2 of a collection's
-- 8 messages were ever seen). Appended by the task's progress and finish when the message
-- changes; at most about 16 kB of them are kept.
ALTER TABLE tasks ADD COLUMN phases TEXT NOT NULL DEFAULT '[]';
