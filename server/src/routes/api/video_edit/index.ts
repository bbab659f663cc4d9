import type { FastifyInstance } from 'fastify';

export default async function videoEditRoutes(_app: FastifyInstance) {}
