-- DPoP proofs already used (RFC 9449 replay check), shared by every API process. Unlogged: nothing here outlives
-- its minute, so a crash may forget it; keys are SHA-256 of the key thumbprint and the proof's jti. No index on
-- expires_at: every insert would pay for it, and the sweep reads a minute's worth of rows.
CREATE UNLOGGED TABLE "dpop_proofs" (
	"proof_key" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
