import type { FastifyInstance } from 'fastify';

export default async function cutVideoRoutes(_app: FastifyInstance) {}
