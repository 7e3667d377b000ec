-- The lock JSON exactly as the holder sent it, returned verbatim with 423 (jsonb reorders keys).
ALTER TABLE "StateLock" ADD COLUMN "raw" TEXT NOT NULL DEFAULT '';
