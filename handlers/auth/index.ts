export const authHandlers = {};
