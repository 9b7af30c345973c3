import { activateStaffProduct } from './activateStaffProduct.js';
import { assignStaffProduct } from './assignStaffProduct.js';
import { createStaffProduct } from './createStaffProduct.js';
import { deactivateStaffProduct } from './deactivateStaffProduct.js';
import { getStaffProduct } from './getStaffProduct.js';
import { listStaffProducts } from './listStaffProducts.js';
import { unassignStaffProduct } from './unassignStaffProduct.js';
import { updateStaffProduct } from './updateStaffProduct.js';

export const staffProductHandlers = {
  listStaffProducts, createStaffProduct, getStaffProduct, updateStaffProduct,
  activateStaffProduct, deactivateStaffProduct, assignStaffProduct, unassignStaffProduct,
};
