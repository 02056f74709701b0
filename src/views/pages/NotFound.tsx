import { Link } from "react-router"

const NotFound = () => (
  <div className="card flex flex-col items-center gap-3 p-10 text-center">
    <h1 className="page-title m-0">Page not found</h1>
    <p className="m-0 text-muted">The page you asked for does not exist or has moved.</p>
    <Link to="/" className="btn-brand">Back to home</Link>
  </div>
)

export default NotFound
