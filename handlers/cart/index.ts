import { addCartItem } from './addCartItem.js';
import { checkoutCart } from './checkoutCart.js';
import { clearCart } from './clearCart.js';
import { deleteCartItem } from './deleteCartItem.js';
import { getCartItem } from './getCartItem.js';
import { listCartItems } from './listCartItems.js';
import { updateCartItem } from './updateCartItem.js';

export const cartHandlers = {
  listCartItems, addCartItem, getCartItem, updateCartItem, deleteCartItem, clearCart, checkoutCart,
};
