"""The API's routes in one flat list.

FastAPI keeps an included router as a node of a tree, and every request walks that tree
(each included router checks whether its routes changed, then matches its own): 15% of the
Events page poll's CPU. The features keep their own routers, and the application gets a
copy of each route, as `include_router` made before FastAPI 0.137.
"""

from fastapi import APIRouter
from fastapi.routing import APIRoute


def copy_routes(source: APIRouter, into: APIRouter, prefix: str = "") -> None:
    """Add a route to `into` for each route of `source`, its path under `prefix`."""
    for route in source.routes:
        if not isinstance(route, APIRoute):
            raise TypeError(f"{route!r} is not an API route: copy it some other way")
        into.add_api_route(
            prefix + route.path,
            route.endpoint,
            response_model=route.response_model,
            status_code=route.status_code,
            tags=route.tags,
            dependencies=route.dependencies,
            summary=route.summary,
            description=route.description,
            response_description=route.response_description,
            responses=route.responses,
            deprecated=route.deprecated,
            methods=route.methods,
            operation_id=route.operation_id,
            response_model_include=route.response_model_include,
            response_model_exclude=route.response_model_exclude,
            response_model_by_alias=route.response_model_by_alias,
            response_model_exclude_unset=route.response_model_exclude_unset,
            response_model_exclude_defaults=route.response_model_exclude_defaults,
            response_model_exclude_none=route.response_model_exclude_none,
            include_in_schema=route.include_in_schema,
            response_class=route.response_class,
            name=route.name,
            callbacks=route.callbacks,
            openapi_extra=route.openapi_extra,
            generate_unique_id_function=route.generate_unique_id_function,
            strict_content_type=route.strict_content_type,
            max_body_size=route.max_body_size,
            form_limits=route.form_limits,
        )
