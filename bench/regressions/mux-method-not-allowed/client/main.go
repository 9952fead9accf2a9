package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/gorilla/mux"
)

func main() {
	ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }
	r := mux.NewRouter()
	r.HandleFunc("/thing", ok).Methods(http.MethodPost)
	r.Methods(http.MethodGet).Path("/something").HandlerFunc(ok)
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/thing", nil))
	fmt.Println("GET /thing:", w.Code)
	if w.Code != http.StatusMethodNotAllowed {
		os.Exit(1)
	}
}
