import type { FastifyInstance } from 'fastify';

export default async function videoImageRoutes(_app: FastifyInstance) {}
