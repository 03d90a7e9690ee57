"""Retail tools, one module each."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.v1.retail.tools.cancel_pending_order import CancelPendingOrder
from taumesh.domains.v1.retail.tools.exchange_delivered_order_items import ExchangeDeliveredOrderItems
from taumesh.domains.v1.retail.tools.find_user_id_by_email import FindUserIdByEmail
from taumesh.domains.v1.retail.tools.find_user_id_by_name_zip import FindUserIdByNameZip
from taumesh.domains.v1.retail.tools.get_order_details import GetOrderDetails
from taumesh.domains.v1.retail.tools.get_product_details import GetProductDetails
from taumesh.domains.v1.retail.tools.get_user_details import GetUserDetails
from taumesh.domains.v1.retail.tools.list_all_product_types import ListAllProductTypes
from taumesh.domains.v1.retail.tools.modify_pending_order_address import ModifyPendingOrderAddress
from taumesh.domains.v1.retail.tools.modify_pending_order_items import ModifyPendingOrderItems
from taumesh.domains.v1.retail.tools.modify_pending_order_payment import ModifyPendingOrderPayment
from taumesh.domains.v1.retail.tools.modify_user_address import ModifyUserAddress
from taumesh.domains.v1.retail.tools.return_delivered_order_items import ReturnDeliveredOrderItems

RETAIL_TOOLS: tuple[type[Tool], ...] = (
    CancelPendingOrder,
    ExchangeDeliveredOrderItems,
    FindUserIdByEmail,
    FindUserIdByNameZip,
    GetOrderDetails,
    GetProductDetails,
    GetUserDetails,
    ListAllProductTypes,
    ModifyPendingOrderAddress,
    ModifyPendingOrderItems,
    ModifyPendingOrderPayment,
    ModifyUserAddress,
    ReturnDeliveredOrderItems,
)
