import { changePassword } from './changePassword.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { refreshToken } from './refreshToken.js';
import { requestPasswordReset } from './requestPasswordReset.js';
import { resetPassword } from './resetPassword.js';
import { signUp } from './signUp.js';

export const authHandlers = { signUp, login, refreshToken, logout, changePassword, requestPasswordReset, resetPassword };
