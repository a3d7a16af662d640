import type { Response } from 'express';
import type { AppError, Language } from './common/errors/app-error';
import { errorBody } from './common/errors/render';
import type { RequestContext } from './context';

/** The request context that app.ts attaches to every response's locals. */
export function contextOf(res: Response): RequestContext {
  return res.locals.context as RequestContext;
}

/** Renders an AppError as the REST error body with its status. */
export function sendError(res: Response, error: AppError, language: Language): void {
  res.status(error.status).json(errorBody(error, language));
}
