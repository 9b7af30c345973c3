export const accountHandlers = {};
