// `prisma dev` imports this on start; Mbox uses PGlite or PostgreSQL instead (README, "Configuration").
export async function startLocalDurableStreamsServer() {
  throw new Error('`prisma dev` is not available in Mbox: the embedded database is PGlite (npm start), or set DATABASE_URL');
}
