# Production image: builds the web app and the extension, runs the server with tsx.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json prisma.config.ts tsconfig.base.json CHANGELOG.md ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund && npm run build
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
EXPOSE 3000
CMD ["npm", "run", "start", "-w", "@mbox/server"]
