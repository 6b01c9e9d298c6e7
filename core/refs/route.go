package refs

import (
	"path"
	"strings"
)

// A web application's memory speaks of its URL routes in the form of
// paths: "the browser redirects to `backend/auth/google`", "Google calls
// back `backend/auth/google/callback`". Such a route is no file, and its
// absence from the repository says nothing. An entry that speaks of
// routes, URLs, endpoints or redirects (routeWords), citing a path whose
// last element has no extension and no closing slash, may be naming a route: Route is set, and Judge
// leaves the path silent unless the history shows the repository had it.

// routeWords are the words, matched without regard to case, that speak of
// the web; the HTTP methods count only in capitals (proseWords keeps them
// so), "get" and "post" being English too.
var routeWords = set(
	"route", "routes", "routed", "routing", "router", "redirect", "redirects", "redirected",
	"redirecting", "endpoint", "endpoints", "url", "urls", "uri", "uris",
	"navigate", "navigates", "navigated", "webhook", "webhooks", "http", "https",
)

// httpMethods are the request methods as an entry writes them, in capitals.
var httpMethods = set("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")

// markRoutes sets Route on the extension-less path references of an entry
// whose prose words speak of the web.
func markRoutes(words, lower []string, found []Ref) {
	web := holdsPhrase(lower, routeWords)
	for _, w := range words {
		web = web || httpMethods[w]
	}
	if !web {
		return
	}
	for i := range found {
		if r := &found[i]; r.Kind == Path && !r.Dir && !strings.Contains(path.Base(r.Path), ".") {
			r.Route = true
		}
	}
}

// hasPath reports whether found holds a path reference.
func hasPath(found []Ref) bool {
	for _, r := range found {
		if r.Kind == Path {
			return true
		}
	}
	return false
}
