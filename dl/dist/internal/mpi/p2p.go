package mpi

import "unsafe"

// AnySource and AnyTag match any sender or tag (MPI_ANY_SOURCE, MPI_ANY_TAG).
const (
	AnySource = -1
	AnyTag    = -1
)

// Status is Open MPI's MPI_Status (struct ompi_status_public_t): the
// public fields, then two internal ones that fix its size.
type Status struct {
	Source, Tag, Error int32
	cancelled          int32
	ucount             uintptr
}

// Count returns how many elements of dt the message of st holds
// (MPI_Get_count).
func (st *Status) Count(dt Datatype) int {
	var n int32
	mpiGetCount(st, uintptr(dt), &n)
	return int(n)
}

// Send sends n elements of buf to dst with tag (MPI_Send).
func (c Comm) Send(buf unsafe.Pointer, n int, dt Datatype, dst, tag int) error {
	k, err := count("MPI_Send", n)
	if err != nil {
		return err
	}
	return check(mpiSend(ptr(buf), k, uintptr(dt), int32(dst), int32(tag), c.h), "MPI_Send")
}

// Recv receives at most n elements from src with tag into buf (MPI_Recv).
func (c Comm) Recv(buf unsafe.Pointer, n int, dt Datatype, src, tag int) (Status, error) {
	var st Status
	k, err := count("MPI_Recv", n)
	if err != nil {
		return st, err
	}
	return st, check(mpiRecv(ptr(buf), k, uintptr(dt), int32(src), int32(tag), c.h, &st), "MPI_Recv")
}

// Probe waits for a message from src with tag and returns its status
// without receiving it (MPI_Probe).
func (c Comm) Probe(src, tag int) (Status, error) {
	var st Status
	return st, check(mpiProbe(int32(src), int32(tag), c.h, &st), "MPI_Probe")
}

// Request is a pending non-blocking operation (MPI_Request). The buffer
// given to it must stay alive and untouched until Test reports it done.
type Request struct {
	h    uintptr
	keep unsafe.Pointer // the buffer, kept reachable while MPI uses it
}

// Isend starts sending n elements of buf to dst (MPI_Isend).
func (c Comm) Isend(buf unsafe.Pointer, n int, dt Datatype, dst, tag int) (*Request, error) {
	k, err := count("MPI_Isend", n)
	if err != nil {
		return nil, err
	}
	r := &Request{keep: buf}
	return r, check(mpiIsend(ptr(buf), k, uintptr(dt), int32(dst), int32(tag), c.h, &r.h), "MPI_Isend")
}

// Irecv starts receiving at most n elements from src into buf (MPI_Irecv).
func (c Comm) Irecv(buf unsafe.Pointer, n int, dt Datatype, src, tag int) (*Request, error) {
	k, err := count("MPI_Irecv", n)
	if err != nil {
		return nil, err
	}
	r := &Request{keep: buf}
	return r, check(mpiIrecv(ptr(buf), k, uintptr(dt), int32(src), int32(tag), c.h, &r.h), "MPI_Irecv")
}

// Test reports whether the request has completed (MPI_Test); a completed
// request is freed by MPI and Test keeps returning true.
func (r *Request) Test() (bool, Status, error) {
	var st Status
	if r.h == 0 || r.h == requestNull {
		return true, st, nil
	}
	var flag int32
	if err := check(mpiTest(&r.h, &flag, &st), "MPI_Test"); err != nil {
		return false, st, err
	}
	if flag != 0 {
		r.keep = nil
	}
	return flag != 0, st, nil
}

// Cancel cancels a pending receive and frees the request (MPI_Cancel,
// MPI_Request_free); the buffer may then be reused.
func (r *Request) Cancel() {
	if r.h == 0 || r.h == requestNull {
		return
	}
	mpiCancel(&r.h)
	mpiRequestFree(&r.h)
	r.keep = nil
}

// Iprobe reports whether a message from src with tag is waiting, and its
// status, without receiving it (MPI_Iprobe).
func (c Comm) Iprobe(src, tag int) (bool, Status, error) {
	var st Status
	var flag int32
	err := check(mpiIprobe(int32(src), int32(tag), c.h, &flag, &st), "MPI_Iprobe")
	return flag != 0, st, err
}
