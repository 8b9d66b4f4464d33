#pragma once

#include "http/HttpTypes.h"
#include "http/JsonBody.h"
#include "http/Router.h"

namespace proofdesk::routes {

// The transport's names (services/http) that the routes are written in: requests, responses,
// the router, how a route is served and the JSON body helpers.
using http::Access;
using http::addNamedRoutes;
using http::ErrorBody;
using http::Execution;
using http::HttpRequest;
using http::HttpResponse;
using http::intQueryParam;
using http::isValidUtf8;
using http::kJsonBodyLimit;
using http::kUploadBodyLimit;
using http::NamedRoute;
using http::parseJsonObject;
using http::requireString;
using http::Route;
using http::RouteGroup;
using http::Router;
using http::UploadedPart;

} // namespace proofdesk::routes
