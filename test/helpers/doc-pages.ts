/**
 * The documentation page each operation should have: the "docs page" column of the API surface map
 * (shared/SURFACE.md), copied here because the docs site's URLs are part of what integrators
 * bookmark and link to. An operation's page path is its `x-doc-slug` (see spec/README.md);
 * test/static/doc-slugs.test.ts holds the contract to this table.
 */

/** Operations the surface map names one by one: operationId -> page under /docs/. */
export const DOC_PAGES: Record<string, string> = {
  signUp: 'Authorization/Sign-Up',
  login: 'Authorization/Login',
  logout: 'Authorization/Logout',
  changePassword: 'Authorization/change-password',
  requestPasswordReset: 'Authorization/request-password-reset',
  resetPassword: 'Authorization/reset-password',
  getAccount: 'account/account_info',
  updateAccount: 'account/update_account',
  deleteAccount: 'account/delete_account',
  sendVerificationCode: 'account/request_verification_code',
  verifyAccount: 'account/verify_account',
  changePhoneNumber: 'account/change_phone_number',
  changeEmail: 'account/change_email',
  getMiniStatement: 'account/mini_statement',
  listNotifications: 'account/get-all-notification',
  getNotification: 'account/get_notification_by_id',
  updateNotificationStatus: 'account/update_notification_status',
  deleteNotification: 'account/delete_notification',
  listInsurers: 'Insurers/all_insurers',
  listCountries: 'countries/all-counties',
  listCurrencies: 'currencies/all_currencies',
  listCompanies: 'companies/all-companies',
  listVehicles: 'Policies/vehicle/all-vehicles',
  listVehicleBodyTypes: 'Policies/vehicle/body-types',
  listVehicleScheduleTypes: 'Policies/vehicle/schedule_type',
  createDeliveryAddress: 'delivery_addresses/add',
  listDeliveryAddresses: 'delivery_addresses/all',
  getDeliveryAddress: 'delivery_addresses/get-by-id',
  updateDeliveryAddress: 'delivery_addresses/update',
  deleteDeliveryAddress: 'delivery_addresses/delete',
  uploadDocuments: 'document_upload/upload',
  downloadDocument: 'document_upload/download',
  deleteDocument: 'document_upload/delete_file',
  listProducts: 'Products/all-products',
  getProduct: 'Products/product-by-id',
  createPolicy: 'category/create-policy',
  listPolicies: 'Policies/all-policies',
  listPolicyTypes: 'Policies/policy-type',
  getPolicy: 'Policies/policy-by-id',
  updatePolicy: 'Policies/update-policy',
  deletePolicy: 'Policies/delete-policy',
  renewPolicy: 'Policies/renew-policy',
  requestPolicyClosure: 'policy_closures/request',
  listPolicyClosures: 'policy_closures/all',
  listCartItems: 'policies_cart/all_cart_items',
  addCartItem: 'policies_cart/add_item_to_cart',
  getCartItem: 'policies_cart/find_item_by_id',
  updateCartItem: 'policies_cart/update_item_in_cart',
  deleteCartItem: 'policies_cart/delete_cart_item',
  clearCart: 'policies_cart/clear_cart',
  checkoutCart: 'policies_cart/checkout',
  createTransaction: 'transaction/create-transaction',
  listTransactions: 'transaction/all-transactions',
  downloadReceipt: 'transaction/download_receipt',
  listInvoices: 'invoices/all_invoices',
  getExternalInvoice: 'invoices/external_invoice',
  createClaim: 'claims/add_claim',
  listClaims: 'claims/all-claims',
  getClaim: 'claims/get_claim_by_id',
  deleteClaim: 'claims/delete_claim',
  createDirectDebit: 'direct_debits/create',
  listDirectDebits: 'direct_debits/all',
  getDirectDebit: 'direct_debits/get_by_id',
  cancelDirectDebit: 'direct_debits/cancel',
};

/** The per-kind policy creation pages of the product spec (one POST /client/policies/{kind} each). */
export const CREATE_POLICY_KINDS = [
  'advance-payment-bound', 'assets-all-risk', 'auto', 'bankers-indemnity', 'blanket-bound',
  'boiler-or-pressure-vessel', 'burglary', 'cash-in-safe', 'cash-in-transit', 'contractor-all-risk',
  'directors-officers-liability', 'electronic-equipment', 'erection-all-risk', 'fidelity-guarantee',
  'fire-and-allied-peril', 'general-liability', 'holdUp-or-OnPremises', 'home', 'life', 'marine',
  'plant-and-machinery', 'professional-indemnity', 'public-liability',
];

/** The per-kind quote pages of the product spec (one POST /client/quotes/{kind} each). */
export const QUOTE_KINDS = [
  'auto', 'burglary', 'contractors_all_risk', 'erectionall_risk', 'goods_in_transit',
  'group_personal_accident', 'home', 'marine_cargo', 'professionindemnity', 'public_liability',
];

/**
 * Families the surface map names by pattern rather than one by one: an operationId matching
 * `operationId` must have a page matching `page`.
 */
export const DOC_PAGE_FAMILIES: { operationId: RegExp; page: RegExp }[] = [
  { operationId: /^create\w+Policy$/, page: new RegExp(`^Policies/Create-policy/(${CREATE_POLICY_KINDS.join('|')})$`) },
  { operationId: /^create\w+Quote$/, page: new RegExp(`^policy-quotes/Get-quote/(${QUOTE_KINDS.join('|')})$`) },
  { operationId: /^(get|update|delete)PolicyClosure$/, page: /^policy_closures\/[\w-]+$/ },
];

/** Operations that need no page of their own (health check, the contract itself). */
export const SYSTEM_OPERATIONS = ['getHealth', 'getOpenApiDocument'];

/**
 * Pages written by hand in docs/docs/ that no operation may take over. `category/create-policy` is
 * the exception the surface map makes: createPolicy's page is that category's index, and the
 * hand-written page stands in for it until createPolicy is in the contract.
 */
export const HAND_WRITTEN_PAGES = ['', 'authentication', 'category/products'];
