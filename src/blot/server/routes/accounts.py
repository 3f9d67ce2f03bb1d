"""Accounts: sign up, log in, log out, change the password, delete the account
(``docs/protocol.md``, "Accounts")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from blot.server.routes import address, bearer, body_of, device, hub_of

router = APIRouter(prefix="/api", tags=["accounts"])


@router.post("/accounts")
async def sign_up(request: Request) -> dict[str, Any]:
    """Create an account (``username``, ``password``) and log in: the answer's ``token`` is used
    like a guest's. A guest's token in the request makes that guest the account."""
    body = await body_of(request)
    return await hub_of(request).accounts.sign_up(body, address(request), bearer(request), device(request))


@router.post("/login")
async def login(request: Request) -> dict[str, Any]:
    """Log in (``username``, ``password``): ``{"id", "username", "name", "token"}``."""
    body = await body_of(request)
    return await hub_of(request).accounts.login(body, address(request), device(request))


@router.post("/logout")
async def logout(request: Request) -> dict[str, Any]:
    """End the session of the request's token."""
    return await hub_of(request).accounts.logout(bearer(request))


@router.put("/password")
async def change_password(request: Request) -> dict[str, Any]:
    """``{"password": current, "new_password": new}``; the account's other sessions end."""
    body = await body_of(request)
    return await hub_of(request).accounts.change_password(bearer(request), body)


@router.delete("/account")
async def delete_account(request: Request) -> dict[str, Any]:
    """``{"password"}``: delete the account; its games stay under the name "deleted player"."""
    body = await body_of(request)
    return await hub_of(request).accounts.delete(bearer(request), body)
