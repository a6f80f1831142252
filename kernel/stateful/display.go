package stateful

import (
	"encoding/gob"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// Display is rich output a cell showed (gonbui.DisplayHTML and the like,
// and so every viz chart): a Jupyter display_data, or update_display_data
// when Update is set; or the cell's result, when Result is set.
type Display struct {
	// Data maps MIME types to content ("text/html" -> "<b>hola</b>").
	Data map[string]any
	// Metadata is the display's metadata (image sizes), maybe nil.
	Metadata map[string]any
	// ID is the display id that later updates replace, "" for none.
	ID string
	// Update reports whether this replaces the display with ID.
	Update bool
	// Result reports whether this is the cell's result, the value of its
	// last expression (kernel.ShowResult): a Jupyter execute_result, which
	// the notebook labels with the cell's execution count. It comes after
	// everything else the cell showed, at most once per cell.
	Result bool
}

// displayReader decodes what gonbui writes on the display pipe of the
// host, answers its Sync requests on the back pipe, and hands the rest to
// show. It is gonbui's peer, as GoNB is for a cell run as a process.
type displayReader struct {
	in   io.Reader
	back io.Writer
	show func(Display)

	mu   sync.Mutex
	seen map[string]bool // display ids shown once: later ones update
}

// run reads until the pipe closes.
func (d *displayReader) run() {
	dec := gob.NewDecoder(d.in)
	enc := gob.NewEncoder(d.back)
	for {
		var data protocol.DisplayData
		if err := dec.Decode(&data); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				d.show(Display{Data: map[string]any{"text/plain": "dlbd kernel: the display pipe broke (" + err.Error() + "); displays of this session will not reach the notebook"}})
			}
			return
		}
		if v, ok := data.Data[protocol.MIMECommValue].(protocol.CommValue); ok {
			if v.Address == protocol.GonbuiSyncAddress {
				// gonbui.Sync waits for this: everything before it was shown.
				enc.Encode(protocol.CommValue{Address: protocol.GonbuiSyncAckAddress, Value: v.Value})
			}
			continue // widgets' values: not supported by the stateful kernel
		}
		if _, ok := data.Data[protocol.MIMECommSubscribe]; ok {
			continue
		}
		if _, ok := data.Data[protocol.MIMEJupyterInput]; ok {
			d.show(Display{Data: map[string]any{"text/plain": "dlbd kernel: gonbui.RequestInput is not supported by the stateful kernel; run the cell in process mode (%mode process)"}})
			continue
		}
		out := Display{Data: map[string]any{}, Metadata: data.Metadata, ID: data.DisplayID}
		for mime, v := range data.Data {
			out.Data[string(mime)] = v
		}
		if out.ID != "" {
			d.mu.Lock()
			out.Update = d.seen[out.ID]
			d.seen[out.ID] = true
			d.mu.Unlock()
		}
		d.show(out)
	}
}
