-- State versions a client encrypted (OpenTofu's state encryption): stored as received, their
-- serial and lineage read from the envelope's clear fields, their contents unreadable here.
-- AlterTable
ALTER TABLE "StateVersion" ADD COLUMN     "encrypted" BOOLEAN NOT NULL DEFAULT false;
