package docker_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// hubBrowser signs in to a hub's pages as a browser does: cookies, the _xsrf field, no
// redirects followed.
type hubBrowser struct {
	t    *testing.T
	base string // http://127.0.0.1:PORT/
	c    *http.Client
}

func newHubBrowser(t *testing.T, base string) *hubBrowser {
	jar, _ := cookiejar.New(nil)
	return &hubBrowser{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// post sends a form (with the _xsrf cookie's value) and returns the response's status and Location.
func (b *hubBrowser) post(path string, form url.Values) (int, string) {
	b.t.Helper()
	r, err := b.c.Get(b.base + "hub/login")
	if err != nil {
		b.t.Fatalf("GET hub/login: %v", err)
	}
	r.Body.Close()
	u, _ := url.Parse(b.base + "hub/")
	for _, ck := range b.c.Jar.Cookies(u) {
		if ck.Name == "_xsrf" {
			form.Set("_xsrf", ck.Value)
		}
	}
	r, err = b.c.PostForm(b.base+path, form)
	if err != nil {
		b.t.Fatalf("POST %s: %v", path, err)
	}
	r.Body.Close()
	return r.StatusCode, r.Header.Get("Location")
}

// login reports whether the hub signed the user in (a redirect away from the login page).
func (b *hubBrowser) login(user, password string) bool {
	b.t.Helper()
	code, loc := b.post("hub/login", url.Values{"username": {user}, "password": {password}})
	return code == http.StatusFound && !strings.Contains(loc, "login")
}

func (b *hubBrowser) get(path string) int {
	b.t.Helper()
	r, err := b.c.Get(b.base + path)
	if err != nil {
		b.t.Fatalf("GET %s: %v", path, err)
	}
	r.Body.Close()
	return r.StatusCode
}

// TestClassroomSignIn: the two ways students sign in. shared: one password for the students,
// the admin's own for the admin, a wrong one refused. native: a student who signed up cannot
// sign in until the admin (who signed up first) approves them at /hub/authorize.
func TestClassroomSignIn(t *testing.T) {
	e, img := requireClassroomImage(t)
	t.Parallel()
	t.Run("shared", func(t *testing.T) {
		const students, admin = "clase-de-hoy", "la-clave-de-la-profesora-es-larga-123"
		c := startClassroom(t, engine{t, e.cli}, img, "DLBD_CLASSROOM_AUTH=shared", "DLBD_CLASSROOM_PASSWORD="+students,
			"DLBD_CLASSROOM_ADMIN_PASSWORD="+admin, "DLBD_CLASSROOM_CULL_TIMEOUT=0")
		if newHubBrowser(t, c.url).login("ana", "otra-cosa") {
			t.Error("a wrong shared password signed ana in")
		}
		if !newHubBrowser(t, c.url).login("ana", students) {
			t.Error("the shared password did not sign ana in")
		}
		if newHubBrowser(t, c.url).login("instructor", students) {
			t.Error("the students' password signed the admin in; want the admin's own only")
		}
		if !newHubBrowser(t, c.url).login("instructor", admin) {
			t.Error("the admin's password did not sign the admin in")
		}
	})
	t.Run("native", func(t *testing.T) {
		c := startClassroom(t, engine{t, e.cli}, img, "DLBD_CLASSROOM_AUTH=native", "DLBD_CLASSROOM_CULL_TIMEOUT=0")
		signup := func(user, pw string) {
			code, _ := newHubBrowser(t, c.url).post("hub/signup", url.Values{"username": {user}, "signup_password": {pw},
				"signup_password_confirmation": {pw}, "email": {user + "@example.org"}})
			if code != 200 {
				t.Fatalf("POST hub/signup for %s: %d", user, code)
			}
		}
		signup("instructor", "clave-profesora-1")
		signup("bea", "clave-de-bea-1")
		if newHubBrowser(t, c.url).login("bea", "clave-de-bea-1") {
			t.Fatal("bea signed in before the admin approved her")
		}
		admin := newHubBrowser(t, c.url)
		if !admin.login("instructor", "clave-profesora-1") {
			t.Fatal("the admin, signed up with the admin's name, cannot sign in")
		}
		if code := admin.get("hub/authorize/bea"); code/100 != 2 && code/100 != 3 {
			t.Fatalf("the admin's GET hub/authorize/bea: %d", code)
		}
		if !newHubBrowser(t, c.url).login("bea", "clave-de-bea-1") {
			t.Error("bea cannot sign in after the admin approved her")
		}
	})
}
