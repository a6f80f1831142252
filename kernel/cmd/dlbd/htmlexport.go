package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dlbd/dlbd/viz"
)

// htmlTemplateName is the nbconvert template that exportHTML uses; it lives
// in a directory of its own that writeHTMLTemplate fills.
const htmlTemplateName = "dlbd"

// htmlTemplateConf is the template's conf.json: JupyterLab's look ("lab").
const htmlTemplateConf = `{
  "base_template": "lab",
  "mimetypes": {
    "text/html": true
  }
}
`

// htmlTemplateIndex is the template's index.html.j2 before the library is
// put in: the lab template with one more script in the page's <head>.
//
// Executed notebooks do not carry the ECharts library (viz sends it to the
// live page, then replaces that output with a few bytes), so the HTML export
// adds it, once, before any chart's script runs. {% raw %} keeps Jinja from
// reading the library's "{{" and "{%" as template code.
const htmlTemplateIndex = `{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}
{{ super() }}
{% raw %}LIBRARY{% endraw %}
{%- endblock html_head_js -%}
`

// writeHTMLTemplate writes the nbconvert template htmlTemplateName, with
// script (viz.LibraryScript) in the page's head, under base/, and returns
// base: the directory to pass as --TemplateExporter.extra_template_basedirs.
func writeHTMLTemplate(base, script string) (string, error) {
	if strings.Contains(script, "endraw") {
		return "", errors.New("notebooks: the ECharts library contains \"endraw\" and cannot be put in an nbconvert template; reinstall it with `make kernel`")
	}
	dir := filepath.Join(base, htmlTemplateName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("notebooks: HTML template: %w", err)
	}
	index := strings.Replace(htmlTemplateIndex, "LIBRARY", script, 1)
	for name, text := range map[string]string{"conf.json": htmlTemplateConf, "index.html.j2": index} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", fmt.Errorf("notebooks: HTML template: %w", err)
		}
	}
	return base, nil
}

// htmlExporter exports executed notebooks to HTML whose charts draw offline.
type htmlExporter struct {
	jupyter   string
	env       []string
	templates string // the base directory of the template htmlTemplateName
}

// newHTMLExporter writes the template into a new temporary directory that
// close removes. It finds the ECharts library as viz does ($DLBD_ASSETS,
// $DLBD_ECHARTS_JS), else in <repo>/.assets where `make kernel` installs it,
// and fails, naming `make kernel`, when it is not there.
func newHTMLExporter(jupyter string, env []string, repo string) (*htmlExporter, error) {
	if os.Getenv(viz.AssetsEnv) == "" && os.Getenv(viz.EChartsFileEnv) == "" {
		os.Setenv(viz.AssetsEnv, filepath.Join(repo, ".assets"))
	}
	script, err := viz.LibraryScript()
	if err != nil {
		return nil, fmt.Errorf("notebooks: the HTML export inlines the ECharts library: %w", err)
	}
	tmp, err := os.MkdirTemp("", "dlbd-nbconvert-")
	if err != nil {
		return nil, fmt.Errorf("notebooks: HTML template: %w", err)
	}
	if _, err := writeHTMLTemplate(tmp, script); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &htmlExporter{jupyter: jupyter, env: env, templates: tmp}, nil
}

// export writes dir/<name>.html for the executed notebook.
func (h *htmlExporter) export(ctx context.Context, executed, dir string) error {
	cmd := exec.CommandContext(ctx, h.jupyter, "nbconvert", "--to", "html", "--template", htmlTemplateName,
		"--TemplateExporter.extra_template_basedirs="+h.templates, "--output-dir", dir, executed)
	cmd.Env = h.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

// close removes the template.
func (h *htmlExporter) close() { os.RemoveAll(h.templates) }
