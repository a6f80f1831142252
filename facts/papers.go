package facts

// Paper is one row of papers.csv: a canonical paper of distributed training,
// for the course's reading list. Source is the paper's own page (arXiv, or the
// proceedings for papers without an arXiv version); Status says how far its
// id, title and venue were checked.
type Paper struct {
	Year       int    // year of the first public version (the arXiv id's year)
	ArXiv      string // "1910.02054"; empty when the paper has no arXiv version
	Authors    string // "Rajbhandari, Rasley, Ruwase, He"; long lists end in "et al."
	Title      string
	Venue      string // "SC20", "arXiv 2019", ...
	Introduced string // what the paper introduced, in one sentence
	Citation          // Source (the paper's URL), Status, Note
}

var papers lazy[Paper]

// Papers returns every row of papers.csv, in chronological order.
func Papers() []Paper {
	return loadRows(&papers, "papers.csv", func(r row) Paper {
		return Paper{Year: r.integer("year"), ArXiv: r.str("arxiv"), Authors: r.str("authors"),
			Title: r.str("title"), Venue: r.str("venue"), Introduced: r.str("introduced"), Citation: r.cite()}
	})
}

// PaperByArXiv returns the paper with the given arXiv id ("2304.11277"), or an
// error listing the known ids.
func PaperByArXiv(id string) (Paper, error) {
	return byName("paper", id, Papers(), func(p Paper) string { return p.ArXiv })
}
